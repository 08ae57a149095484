CREATE TABLE "checkout_configs" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"config" jsonb NOT NULL,
	"variables" jsonb NOT NULL,
	"bytes" integer NOT NULL,
	"target" text NOT NULL,
	"platform_discount_id" text,
	"written_at" timestamp (3) with time zone NOT NULL,
	"last_error" text,
	"last_error_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "platform_connections" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"sealed_token" text NOT NULL,
	"connected_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"broken_at" timestamp (3) with time zone,
	"broken_reason" text
);
--> statement-breakpoint
ALTER TABLE "checkout_configs" ADD CONSTRAINT "checkout_configs_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_connections" ADD CONSTRAINT "platform_connections_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;