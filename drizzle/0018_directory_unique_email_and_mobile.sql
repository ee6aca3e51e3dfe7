ALTER TABLE "staff_directory" ADD COLUMN "email_lower_case" text;--> statement-breakpoint
ALTER TABLE "staff_directory" ADD COLUMN "mobile_e164" text;--> statement-breakpoint
-- Entries stored before: the first active one of each email takes it; a later duplicate is kept as it is (its
-- messages still go once per address) and is refused only when next saved. Mobiles are read as E.164 by the app
-- (libphonenumber), so they are compared from the next save on.
UPDATE "staff_directory" SET "email_lower_case" = lower("email")
WHERE "id" IN (
  SELECT DISTINCT ON (lower("email")) "id" FROM "staff_directory"
  WHERE "is_active" AND "email" IS NOT NULL ORDER BY lower("email"), "id"
);--> statement-breakpoint
CREATE UNIQUE INDEX "staff_directory_active_email_unique" ON "staff_directory" USING btree ("email_lower_case") WHERE "staff_directory"."is_active";--> statement-breakpoint
CREATE UNIQUE INDEX "staff_directory_active_mobile_unique" ON "staff_directory" USING btree ("mobile_e164") WHERE "staff_directory"."is_active";