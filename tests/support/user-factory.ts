import { createInterface } from 'node:readline';
import { createUser } from '../../app/services/auth/users.server';
import { closeDb } from '../../app/services/db/db.server';

// The end-to-end fixtures' account factory: one long-lived process per app database that creates
// accounts through the same service as `npm run user:create` (scripts/user-create.ts). Starting the
// CLI once per account cost about 2 s of CPU each (tsx and the app's modules loading again), which
// over the whole Playwright suite was minutes of CI. The CLI itself is tested in
// tests/integration/user-create-cli.test.ts.
//
// Protocol: one JSON request a line on stdin, one JSON answer a line on stdout, in order.
//   → {"email","password","name","access","superuser"}
//   ← {"ok":true} | {"ok":false,"error":"…"}
// The process ends when stdin closes (its parent, a Playwright worker, exited).

type Request = { email: string; password: string; name: string; access: boolean; superuser: boolean };

const lines = createInterface({ input: process.stdin, terminal: false });
let queue: Promise<void> = Promise.resolve();

lines.on('line', (line) => {
  queue = queue.then(async () => {
    try {
      const r = JSON.parse(line) as Request;
      await createUser({ email: r.email, password: r.password, full_name: r.name, access: r.access, superuser: r.superuser });
      process.stdout.write(JSON.stringify({ ok: true }) + '\n');
    } catch (e) {
      const detail = e && typeof e === 'object' && 'detail' in e ? String((e as { detail: unknown }).detail) : String(e);
      process.stdout.write(JSON.stringify({ ok: false, error: detail }) + '\n');
    }
  });
});
lines.on('close', () => {
  void queue.then(closeDb).finally(() => process.exit(0));
});
