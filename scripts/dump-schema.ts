// npm run schema: writes schema.generated.sql from the migrations (src/db/schema-dump.ts).
import { writeFileSync } from 'node:fs';
import { migratedSchema } from '../src/db/schema-dump.ts';

writeFileSync(new URL('../schema.generated.sql', import.meta.url), migratedSchema());
process.stdout.write('schema.generated.sql written\n');
