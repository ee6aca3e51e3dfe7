ALTER TABLE "rate_limit_counters" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "rate_limit_counters" CASCADE;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "client_address" text;--> statement-breakpoint
CREATE INDEX "submissions_client_address_idx" ON "submissions" USING btree ("client_address","created_at") WHERE "submissions"."client_address" IS NOT NULL;