import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate` writes a reviewed SQL migration from the tables in src/database/schema/
// (one file a table), which src/database/schema.ts gathers.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/database/schema.ts',
  out: './migrations',
});
