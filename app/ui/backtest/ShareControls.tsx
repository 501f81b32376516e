import { Form } from '@remix-run/react';

// The owner's switch for the read-only permalink (/backtest/shared/{token}): a POST each way.

export function ShareControls({ id, shareToken, origin }: { id: string; shareToken: string | null; origin: string }) {
  const link = shareToken ? `${origin}/backtest/shared/${shareToken}` : null;
  return (
    <section aria-labelledby="share-title" className="card backtest-share">
      <h2 id="share-title">Share</h2>
      {link ? (
        <>
          <p>
            Anyone with a Quarry account (full access) who has this link sees this result, read-only:{' '}
            <a href={link} data-testid="backtest-share-link">
              {link}
            </a>
          </p>
          <Form method="post" className="inline-form">
            <input type="hidden" name="intent" value="unshare" />
            <input type="hidden" name="id" value={id} />
            <button type="submit" className="button">
              Stop sharing
            </button>
          </Form>
        </>
      ) : (
        <Form method="post" className="inline-form">
          <p>Not shared. A read-only link shows the result and its CSV downloads, without the controls.</p>
          <input type="hidden" name="intent" value="share" />
          <input type="hidden" name="id" value={id} />
          <button type="submit" className="button">
            Share read-only link
          </button>
        </Form>
      )}
    </section>
  );
}
