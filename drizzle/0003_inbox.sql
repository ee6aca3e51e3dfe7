-- The inbox search matches parts of names, emails and phones; pg_trgm indexes that (trusted since PostgreSQL 13).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "submission_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"submission_id" bigint NOT NULL,
	"actor_id" bigint,
	"kind" text NOT NULL,
	"from_value" text,
	"to_value" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submission_notes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"submission_id" bigint NOT NULL,
	"author_id" bigint,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "submissions_created_at_idx";--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "status" text;--> statement-breakpoint
UPDATE "submissions" SET "status" = CASE WHEN "type" = 'application' THEN 'Received' ELSE 'New' END;--> statement-breakpoint
ALTER TABLE "submissions" ALTER COLUMN "status" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "status_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "assignee_id" bigint;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "contact_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "contact_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "contact_phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "submissions" SET
  "contact_name" = trim(coalesce("payload"->>'firstName', '') || ' ' || coalesce("payload"->>'lastName', '')),
  "contact_email" = coalesce("payload"->>'email', ''),
  "contact_phone" = coalesce("payload"->>'phone', '')
  WHERE "type" IN ('estimate', 'application');--> statement-breakpoint
UPDATE "submissions" SET
  "contact_name" = coalesce("payload"#>>'{answers,1}', ''),
  "contact_email" = coalesce("payload"#>>'{answers,2}', ''),
  "contact_phone" = coalesce("payload"#>>'{answers,3}', '')
  WHERE "type" = 'assessment';--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("submissions"."reference" || ' ' || "submissions"."contact_name" || ' ' || "submissions"."contact_email" || ' ' || "submissions"."contact_phone" || ' ' || regexp_replace("submissions"."contact_phone", '[^0-9]', '', 'g'))) STORED;--> statement-breakpoint
ALTER TABLE "submission_events" ADD CONSTRAINT "submission_events_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_events" ADD CONSTRAINT "submission_events_actor_id_staff_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_notes" ADD CONSTRAINT "submission_notes_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_notes" ADD CONSTRAINT "submission_notes_author_id_staff_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "submission_events_submission_idx" ON "submission_events" USING btree ("submission_id","created_at");--> statement-breakpoint
CREATE INDEX "submission_notes_submission_idx" ON "submission_notes" USING btree ("submission_id","created_at");--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_assignee_id_staff_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "submissions_type_created_at_idx" ON "submissions" USING btree ("type","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "submissions_status_idx" ON "submissions" USING btree ("type","status");--> statement-breakpoint
CREATE INDEX "submissions_search_idx" ON "submissions" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "submissions_created_at_idx" ON "submissions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);