import { METHODOLOGY } from './engine/methodology';

// The methodology text (engine/methodology.ts) as sections with stable anchors, so the page can
// give each definition a heading and the results can link straight to it. The text stays the
// single source: paragraphs read "Term. Text…", definitions read "- Term: text…".

export type MethodologySection = {
  id: string;
  term: string;
  text: string;
  /** Definitions of the statistics sit under the "Statistics" paragraph. */
  definitions: { id: string; term: string; text: string }[];
};

export type Methodology = { title: string; sections: MethodologySection[] };

export function slug(term: string): string {
  return term
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function parseMethodology(text: string = METHODOLOGY): Methodology {
  const lines = text.split('\n').map((l) => l.trim());
  const title = lines[0] ?? '';
  const sections: MethodologySection[] = [];
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    if (line.startsWith('- ')) {
      const body = line.slice(2);
      const colon = body.indexOf(':');
      const term = colon > 0 ? body.slice(0, colon) : body;
      const definition = { id: slug(term), term, text: colon > 0 ? body.slice(colon + 1).trim() : '' };
      const last = sections.at(-1);
      if (last) last.definitions.push(definition);
      else sections.push({ ...definition, definitions: [] });
      continue;
    }
    const dot = line.indexOf('. ');
    const term = dot > 0 ? line.slice(0, dot) : line;
    sections.push({ id: slug(term), term, text: dot > 0 ? line.slice(dot + 2) : '', definitions: [] });
  }
  return { title, sections };
}

/** Every anchor of the methodology page. */
export function methodologyAnchors(m: Methodology = parseMethodology()): Set<string> {
  return new Set(m.sections.flatMap((s) => [s.id, ...s.definitions.map((d) => d.id)]));
}
