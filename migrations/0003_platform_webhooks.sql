CREATE TABLE "inventory_items" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"variant_id" text NOT NULL,
	CONSTRAINT "inventory_items_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
CREATE TABLE "inventory_levels" (
	"shop_id" text NOT NULL,
	"inventory_item_id" text NOT NULL,
	"location_id" text NOT NULL,
	"available" integer NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_levels_shop_id_inventory_item_id_location_id_pk" PRIMARY KEY("shop_id","inventory_item_id","location_id")
);
--> statement-breakpoint
CREATE TABLE "platform_webhook_deliveries" (
	"shop_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"topic" text NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_webhook_deliveries_shop_id_webhook_id_pk" PRIMARY KEY("shop_id","webhook_id")
);
--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_webhook_deliveries" ADD CONSTRAINT "platform_webhook_deliveries_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_webhook_deliveries_received_idx" ON "platform_webhook_deliveries" USING btree ("received_at");