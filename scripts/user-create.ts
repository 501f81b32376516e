import { parseArgs } from 'node:util';
import { closeDb } from '../app/services/db/db.server';
import { isDomainError } from '../app/services/http/errors';
import { createUser } from '../app/services/auth/users.server';

// npm run user:create -- --email E --password P --name N [--superuser] [--access]

const USAGE = 'Usage: npm run user:create -- --email E --password P --name N [--superuser] [--access]';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
        superuser: { type: 'boolean', default: false },
        access: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    console.error(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const missing = (['email', 'password', 'name'] as const).filter((k) => !values[k]);
  if (missing.length > 0) {
    console.error(`Missing ${missing.map((k) => `--${k}`).join(', ')}.\n${USAGE}`);
    return 2;
  }
  try {
    const user = await createUser({
      email: values.email!,
      password: values.password!,
      full_name: values.name!,
      superuser: values.superuser,
      access: values.access,
    });
    const roles = [user.is_superuser ? 'superuser' : null, user.has_access ? 'has access' : 'no access yet'].filter(Boolean);
    console.log(`Created user ${user.email} (${user.id}), ${roles.join(', ')}.`);
    return 0;
  } catch (e) {
    if (isDomainError(e)) {
      const fields = e.fields ? Object.entries(e.fields).map(([k, v]) => `  --${k === 'full_name' ? 'name' : k}: ${v.join(' ')}`) : [];
      console.error([`Could not create the user: ${e.detail}`, ...fields].join('\n'));
      return 1;
    }
    throw e;
  } finally {
    await closeDb();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error('user:create failed:', e);
    process.exit(1);
  },
);
