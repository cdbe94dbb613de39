import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate` writes a reviewed SQL migration from src/database/schema.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/database/schema.ts',
  out: './migrations',
});
