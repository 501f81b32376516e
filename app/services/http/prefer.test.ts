import { describe, expect, it } from 'vitest';
import { MAX_PREFERRED_WAIT_SECONDS, preferredWait, startedWorkWait } from './prefer';

const asked = (prefer?: string) =>
  preferredWait(new Request('http://localhost/api/v1/backtests', prefer === undefined ? {} : { headers: { Prefer: prefer } }));

describe('the Prefer: wait header (RFC 7240)', () => {
  it('reads a wait in whole seconds, among other preferences, quoted or spaced', () => {
    expect(asked('wait=10')).toBe(10);
    expect(asked('respond-async, wait=5')).toBe(5);
    expect(asked('return=minimal; foo="bar", Wait = 7')).toBe(7);
    expect(asked('wait="3"')).toBe(3);
    expect(asked('wait=0')).toBe(0);
  });

  it(`grants at most ${MAX_PREFERRED_WAIT_SECONDS} seconds`, () => {
    expect(asked('wait=3600')).toBe(MAX_PREFERRED_WAIT_SECONDS);
  });

  it('ignores no header, other preferences and waits that are not whole seconds', () => {
    expect(asked()).toBeNull();
    expect(asked('respond-async')).toBeNull();
    expect(asked('wait')).toBeNull();
    expect(asked('wait=abc')).toBeNull();
    expect(asked('wait=-1')).toBeNull();
    expect(asked('wait=1.5')).toBeNull();
    expect(asked('wait=99999999999999999999')).toBeNull();
  });

  it('gives work a client starts the wait it asks for, none with respond-async alone, else the default', () => {
    const started = (prefer?: string) =>
      startedWorkWait(new Request('http://localhost/api/v1/backtests', prefer === undefined ? {} : { headers: { Prefer: prefer } }), 10);
    expect(started()).toEqual({ seconds: 10, headers: {} });
    expect(started('return=minimal')).toEqual({ seconds: 10, headers: {} });
    expect(started('wait=abc')).toEqual({ seconds: 10, headers: {} });
    expect(started('respond-async')).toEqual({ seconds: 0, headers: { 'Preference-Applied': 'respond-async' } });
    expect(started('Respond-Async ; x=1')).toEqual({ seconds: 0, headers: { 'Preference-Applied': 'respond-async' } });
    // Both: asynchronous unless it is done within the wait (RFC 7240 §4.3).
    expect(started('respond-async, wait=3')).toEqual({ seconds: 3, headers: { 'Preference-Applied': 'respond-async, wait=3' } });
    expect(started('wait=0')).toEqual({ seconds: 0, headers: { 'Preference-Applied': 'wait=0' } });
    expect(started('wait=600')).toEqual({
      seconds: MAX_PREFERRED_WAIT_SECONDS,
      headers: { 'Preference-Applied': `wait=${MAX_PREFERRED_WAIT_SECONDS}` },
    });
  });
});
