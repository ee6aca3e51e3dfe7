ALTER TABLE "submissions" ADD COLUMN "search_terms" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" drop column "search_text";--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("submissions"."reference" || ' ' || "submissions"."contact_name" || ' ' || "submissions"."contact_email" || ' ' || "submissions"."contact_phone" || ' ' || regexp_replace("submissions"."contact_phone", '[^0-9]', '', 'g') || ' ' || "submissions"."search_terms")) STORED;--> statement-breakpoint
CREATE INDEX "submissions_search_idx" ON "submissions" USING gin ("search_text" gin_trgm_ops);
