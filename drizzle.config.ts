import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./app/services/db/schema.server.ts",
  out: "./drizzle",
  casing: "snake_case",
});
