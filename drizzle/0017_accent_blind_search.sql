-- The inbox search ignores accents: unaccent ships with PostgreSQL (trusted since 13). unaccent() is only
-- STABLE (its dictionary could be changed), so a stored generated column needs this IMMUTABLE wrapper naming the
-- dictionary (rebuild search_text if unaccent.rules is ever edited). The body is SQL-standard (RETURN): bound
-- when created, so it works whatever search_path a restore runs with.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE OR REPLACE FUNCTION fold_text(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN lower(unaccent('unaccent'::regdictionary, value));--> statement-breakpoint
ALTER TABLE "submissions" drop column "search_text";--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "search_text" text GENERATED ALWAYS AS (fold_text("submissions"."reference" || ' ' || "submissions"."contact_name" || ' ' || "submissions"."contact_email" || ' ' || "submissions"."contact_phone" || ' ' || regexp_replace("submissions"."contact_phone", '[^0-9]', '', 'g') || ' ' || "submissions"."search_terms")) STORED;--> statement-breakpoint
-- Dropped with the column it indexed: the same index again, now over folded text.
CREATE INDEX "submissions_search_idx" ON "submissions" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- Statistics of the new column, so the planner knows from the first search how common a term is.
ANALYZE "submissions";
