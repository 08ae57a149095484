CREATE TABLE "api_keys" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	CONSTRAINT "api_keys_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean NOT NULL,
	"is_draft" boolean NOT NULL,
	"start_at" timestamp (3) with time zone,
	"end_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
CREATE TABLE "collections" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"handle" text NOT NULL,
	"product_ids" jsonb NOT NULL,
	CONSTRAINT "collections_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
CREATE TABLE "daily_campaign_stats" (
	"shop_id" text NOT NULL,
	"day" date NOT NULL,
	"campaign_id" text NOT NULL,
	"orders_with_gifts" integer NOT NULL,
	"gifts_given" integer NOT NULL,
	"revenue_with_gifts" bigint NOT NULL,
	CONSTRAINT "daily_campaign_stats_shop_id_day_campaign_id_pk" PRIMARY KEY("shop_id","day","campaign_id")
);
--> statement-breakpoint
CREATE TABLE "daily_totals" (
	"shop_id" text NOT NULL,
	"day" date NOT NULL,
	"total_orders" integer NOT NULL,
	"total_revenue" bigint NOT NULL,
	"orders_with_gifts" integer NOT NULL,
	"revenue_with_gifts" bigint NOT NULL,
	CONSTRAINT "daily_totals_shop_id_day_pk" PRIMARY KEY("shop_id","day")
);
--> statement-breakpoint
CREATE TABLE "discount_syncs" (
	"shop_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"active" boolean NOT NULL,
	"synced_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_syncs_shop_id_campaign_id_pk" PRIMARY KEY("shop_id","campaign_id")
);
--> statement-breakpoint
CREATE TABLE "experiments" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"status" text NOT NULL,
	"primary_metric" text NOT NULL,
	"variants" jsonb NOT NULL,
	"winner_variant_id" text,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp (3) with time zone,
	"concluded_at" timestamp (3) with time zone,
	CONSTRAINT "experiments_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"customer_id" text,
	"completed_at" timestamp (3) with time zone NOT NULL,
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"total" bigint NOT NULL,
	"gift_lines" integer NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"kind" text NOT NULL,
	"endpoint_id" text,
	"message_id" text,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbox_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
CREATE TABLE "outbox_attempts" (
	"shop_id" text NOT NULL,
	"outbox_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"attempted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbox_attempts_shop_id_outbox_id_attempt_pk" PRIMARY KEY("shop_id","outbox_id","attempt")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"title" text NOT NULL,
	"status" text NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
CREATE TABLE "redemptions" (
	"shop_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"rule_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"count" integer NOT NULL,
	"last_redeemed_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "redemptions_shop_id_customer_id_rule_id_pk" PRIMARY KEY("shop_id","customer_id","rule_id")
);
--> statement-breakpoint
CREATE TABLE "rules" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean NOT NULL,
	"condition_tree" text NOT NULL,
	"gift_config" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rules_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
CREATE TABLE "shops" (
	"id" text PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"plan" text NOT NULL,
	"currency" text NOT NULL,
	"timezone" text NOT NULL,
	"limits" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"rules_version" bigint DEFAULT 1 NOT NULL,
	"widgets" jsonb,
	"widgets_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storefront_events" (
	"shop_id" text NOT NULL,
	"id" bigserial NOT NULL,
	"type" text NOT NULL,
	"campaign_id" text NOT NULL,
	"rule_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"cart_token" text,
	"visitor_id" text,
	"session_id" text,
	"context" jsonb,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "storefront_events_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
CREATE TABLE "variants" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"product_id" text NOT NULL,
	"title" text NOT NULL,
	"inventory_quantity" integer NOT NULL,
	"inventory_policy" text NOT NULL,
	CONSTRAINT "variants_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"secret" text NOT NULL,
	"disabled_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_shop_id_campaign_id_campaigns_shop_id_id_fk" FOREIGN KEY ("shop_id","campaign_id") REFERENCES "public"."campaigns"("shop_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_attempts" ADD CONSTRAINT "outbox_attempts_shop_id_outbox_id_outbox_shop_id_id_fk" FOREIGN KEY ("shop_id","outbox_id") REFERENCES "public"."outbox"("shop_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_shop_id_campaign_id_campaigns_shop_id_id_fk" FOREIGN KEY ("shop_id","campaign_id") REFERENCES "public"."campaigns"("shop_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variants" ADD CONSTRAINT "variants_shop_id_product_id_products_shop_id_id_fk" FOREIGN KEY ("shop_id","product_id") REFERENCES "public"."products"("shop_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_shop_hash_key" ON "api_keys" USING btree ("shop_id","key_hash");--> statement-breakpoint
CREATE INDEX "campaigns_shop_created_idx" ON "campaigns" USING btree ("shop_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "collections_shop_handle_key" ON "collections" USING btree ("shop_id","handle");--> statement-breakpoint
CREATE INDEX "experiments_shop_campaign_idx" ON "experiments" USING btree ("shop_id","campaign_id");--> statement-breakpoint
CREATE INDEX "orders_shop_day_idx" ON "orders" USING btree ("shop_id","day");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "outbox_shop_created_idx" ON "outbox" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE INDEX "rules_shop_campaign_idx" ON "rules" USING btree ("shop_id","campaign_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "shops_domain_key" ON "shops" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "storefront_events_shop_campaign_idx" ON "storefront_events" USING btree ("shop_id","campaign_id");--> statement-breakpoint
CREATE INDEX "storefront_events_shop_received_idx" ON "storefront_events" USING btree ("shop_id","received_at");--> statement-breakpoint
CREATE INDEX "variants_shop_product_idx" ON "variants" USING btree ("shop_id","product_id");