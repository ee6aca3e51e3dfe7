DROP INDEX "submissions_status_idx";--> statement-breakpoint
CREATE INDEX "submissions_not_spam_created_at_idx" ON "submissions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE NOT "submissions"."is_spam";--> statement-breakpoint
CREATE INDEX "submissions_status_idx" ON "submissions" USING btree ("type","status") WHERE NOT "submissions"."is_spam";