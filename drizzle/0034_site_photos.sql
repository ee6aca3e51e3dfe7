CREATE TABLE "site_photo_renditions" (
	"photo_id" bigint NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"format" text NOT NULL,
	"content" "bytea" NOT NULL,
	CONSTRAINT "site_photo_renditions_photo_id_width_format_pk" PRIMARY KEY("photo_id","width","format")
);
--> statement-breakpoint
CREATE TABLE "site_photos" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"source_width" integer NOT NULL,
	"source_height" integer NOT NULL,
	"uploaded_by_id" bigint,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_photos_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "site_photo_renditions" ADD CONSTRAINT "site_photo_renditions_photo_id_site_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."site_photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_photos" ADD CONSTRAINT "site_photos_uploaded_by_id_staff_users_id_fk" FOREIGN KEY ("uploaded_by_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;