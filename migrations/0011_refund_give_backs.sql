CREATE TABLE "order_give_backs" (
	"shop_id" text NOT NULL,
	"order_id" text NOT NULL,
	"ref" text NOT NULL,
	"lines" jsonb NOT NULL,
	"budget_units" integer NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_give_backs_shop_id_order_id_ref_pk" PRIMARY KEY("shop_id","order_id","ref")
);
--> statement-breakpoint
ALTER TABLE "daily_campaign_stats" ADD COLUMN "gifts_refunded" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "daily_campaign_stats" ADD COLUMN "orders_with_gifts_refunded" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "daily_totals" ADD COLUMN "orders_with_gifts_refunded" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "budget_charges" jsonb;