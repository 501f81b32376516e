import { useRouteLoaderData } from '@remix-run/react';
import type { PageNotice } from '~/services/http/modal-state';

// The answer of a form posted without JavaScript, shown in the page it came back to (the root
// loader reads it from the session once), in the same words and marks as the inline answer the
// page gives with JavaScript: ✓ success, ℹ information (e.g. "already on"), ⚠ error.

export type InlineReply = { text: string; mode: 'success' | 'info' | 'error' };

export function usePageNotice(): PageNotice | null {
  const root = useRouteLoaderData('root') as { notice?: PageNotice | null } | undefined;
  return root?.notice ?? null;
}

export function InlineStatus({ reply, id }: { reply: InlineReply | null | undefined; id?: string }) {
  return (
    <span id={id} role="status" className={reply ? `inline-status inline-status--${reply.mode}` : 'inline-status'}>
      {reply ? (
        <>
          <span aria-hidden="true">{reply.mode === 'success' ? '✓ ' : reply.mode === 'info' ? 'ℹ ' : '⚠ '}</span>
          {reply.text}
        </>
      ) : null}
    </span>
  );
}
