CREATE TABLE "address_post_counts" (
	"client_address" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"connection" integer NOT NULL,
	"posts" integer NOT NULL,
	CONSTRAINT "address_post_counts_client_address_minute_connection_pk" PRIMARY KEY("client_address","minute","connection")
);
--> statement-breakpoint
DROP INDEX "submissions_client_address_idx";--> statement-breakpoint
ALTER TABLE "submissions" DROP COLUMN "client_address";