import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP minimum (19 MiB, t=2, p=1). The parameters travel inside each hash,
// so raising them later still verifies old hashes.
const ARGON2ID = 2; // Algorithm.Argon2id (a const enum that isolatedModules cannot import)

export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** False for a wrong password and for a hash that is not an argon2 hash at all. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against a throwaway hash so that an unknown e-mail costs the same time as a wrong
 * password (no account enumeration by timing).
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('quarry-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
