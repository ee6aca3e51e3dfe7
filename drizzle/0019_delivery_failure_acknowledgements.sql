CREATE TABLE "delivery_failure_acknowledgements" (
	"delivery_id" bigint PRIMARY KEY NOT NULL,
	"staff_user_id" bigint,
	"username" text NOT NULL,
	"acknowledged_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "delivery_failure_acknowledgements" ADD CONSTRAINT "delivery_failure_acknowledgements_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_failure_acknowledgements" ADD CONSTRAINT "delivery_failure_acknowledgements_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;