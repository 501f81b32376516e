import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conflict, forbidden, notFound } from './errors';
import { intent, intentAction, NO_VALUES, unknownIntentMessage } from './intent-action.server';

// The one way a page with several forms handles a POST, with every outcome a form can have.

type Reply = {
  type: string;
  data: { error?: Record<string, string[] | null> | null; initialValue?: Record<string, unknown> };
  init: { status: number };
};

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

const calls: string[] = [];
const options = {
  cancelTo: '/things',
  refusalModal: async (detail: string) => new Response(null, { status: 302, headers: { Location: '/things', 'X-Modal': detail } }),
  intents: {
    rename: intent(z.object({ id: z.string().min(1), name: z.string().max(5, 'At most 5 characters') }), async (v) => {
      calls.push(`rename ${v.id} ${v.name}`);
      if (v.name === 'taken') throw conflict('That name is taken.');
      if (v.id === 'gone') throw notFound('Thing not found.');
      if (v.id === 'theirs') throw forbidden('Not yours.');
      if (v.id === 'bug') throw new Error('a bug');
      return new Response(null, { status: 302, headers: { Location: '/things' } });
    }),
    delete: intent(
      NO_VALUES,
      async () => {
        throw conflict('Still in use.');
      },
      { refusals: 'modal' },
    ),
  },
};

async function run(fields: Record<string, string>): Promise<Response | Reply> {
  try {
    return (await intentAction(form(fields), options)) as Response | Reply;
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
}

const statusOf = (r: Response | Reply) => (r instanceof Response ? r.status : r.init.status);

describe('intent action', () => {
  it('runs the intent with its parsed values', async () => {
    const r = await run({ intent: 'rename', id: 'a', name: 'new' });
    expect([statusOf(r), (r as Response).headers.get('Location')]).toEqual([302, '/things']);
    expect(calls).toContain('rename a new');
  });

  it('goes back without changing anything when a dialog was cancelled', async () => {
    calls.length = 0;
    const r = (await run({ intent: 'rename', id: 'a', name: 'x', cancelled: 'true' })) as Response;
    expect([r.status, r.headers.get('Location')]).toEqual([302, '/things']);
    expect(calls).toEqual([]);
  });

  it('answers an unknown or missing intent with 400 and a message for the page, never JSON', async () => {
    for (const fields of <Record<string, string>[]>[{ intent: 'frobnicate' }, {}, { intent: 'toString' }, { intent: '__proto__' }]) {
      const r = (await run(fields)) as Reply;
      expect(statusOf(r), JSON.stringify(fields)).toBe(400);
      expect(r.data.error?.['']).toEqual([unknownIntentMessage(fields.intent ?? '')]);
    }
  });

  it('answers values the schema refuses with 400 and the field errors, keeping what was typed', async () => {
    const r = (await run({ intent: 'rename', id: '', name: 'far too long' })) as Reply;
    expect(statusOf(r)).toBe(400);
    expect(r.data.error?.name).toEqual(['At most 5 characters']);
    expect(r.data.error?.id?.length).toBe(1);
    expect(r.data.initialValue).toMatchObject({ intent: 'rename', name: 'far too long' });
  });

  it('shows a missing or foreign thing as the error page (404, 403)', async () => {
    const gone = (await run({ intent: 'rename', id: 'gone', name: 'x' })) as Response;
    expect([gone.status, await gone.text()]).toEqual([404, 'Thing not found.']);
    const theirs = (await run({ intent: 'rename', id: 'theirs', name: 'x' })) as Response;
    expect(theirs.status).toBe(403);
  });

  it('puts a refusal on the form, or in the error modal for buttons', async () => {
    const onForm = (await run({ intent: 'rename', id: 'a', name: 'taken' })) as Reply;
    expect([statusOf(onForm), onForm.data.error?.['']]).toEqual([409, ['That name is taken.']]);
    const modal = (await run({ intent: 'delete' })) as Response;
    expect([modal.status, modal.headers.get('X-Modal')]).toEqual([302, 'Still in use.']);
  });

  it('lets an unexpected error through to the error boundary', async () => {
    await expect(run({ intent: 'rename', id: 'bug', name: 'x' })).rejects.toThrow('a bug');
  });
});
