CREATE TABLE "catalog_imports" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"status" text NOT NULL,
	"cursor" text,
	"pages" integer DEFAULT 0 NOT NULL,
	"products" integer DEFAULT 0 NOT NULL,
	"variants" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "catalog_imports" ADD CONSTRAINT "catalog_imports_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;