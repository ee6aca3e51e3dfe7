ALTER TABLE "deliveries" ADD COLUMN "reference" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "spam_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "suspicious_reason" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "submitted_by_id" bigint;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_submitted_by_id_staff_users_id_fk" FOREIGN KEY ("submitted_by_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
UPDATE "submissions" SET "spam_since" = "created_at" WHERE "is_spam";--> statement-breakpoint
UPDATE "deliveries" SET "reference" = "submissions"."reference" FROM "submissions" WHERE "submissions"."id" = "deliveries"."submission_id";