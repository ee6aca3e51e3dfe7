CREATE TABLE "site_content_draft" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"content" jsonb NOT NULL,
	"base_version_id" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by_user_id" bigint,
	"updated_by_name" text NOT NULL,
	CONSTRAINT "site_content_draft_single_row" CHECK ("site_content_draft"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "site_content_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"content" jsonb NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_by_user_id" bigint,
	"published_by_name" text NOT NULL,
	"republished_from_id" bigint
);
--> statement-breakpoint
ALTER TABLE "site_content_draft" ADD CONSTRAINT "site_content_draft_updated_by_user_id_staff_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_content_versions" ADD CONSTRAINT "site_content_versions_published_by_user_id_staff_users_id_fk" FOREIGN KEY ("published_by_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;