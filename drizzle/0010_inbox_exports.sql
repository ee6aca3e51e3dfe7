CREATE TABLE "inbox_exports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"staff_user_id" bigint,
	"username" text NOT NULL,
	"query" text NOT NULL,
	"left_out_types" text[] NOT NULL,
	"row_count" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbox_exports" ADD CONSTRAINT "inbox_exports_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;