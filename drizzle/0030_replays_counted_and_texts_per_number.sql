ALTER TABLE "deliveries" ADD COLUMN "text_counted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "replayed_by_id" bigint;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_replayed_by_id_staff_users_id_fk" FOREIGN KEY ("replayed_by_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deliveries_text_number_idx" ON "deliveries" USING btree ("destination","text_counted_at") WHERE "deliveries"."channel" = 'sms';--> statement-breakpoint
CREATE INDEX "deliveries_replayed_by_idx" ON "deliveries" USING btree ("replayed_by_id","created_at") WHERE "deliveries"."replayed_by_id" IS NOT NULL;--> statement-breakpoint
UPDATE "deliveries" SET "text_counted_at" = "delivered_at" WHERE "channel" = 'sms' AND "delivered_at" > now() - interval '1 day';
