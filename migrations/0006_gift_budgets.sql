CREATE TABLE "gift_budget_usage" (
	"shop_id" text NOT NULL,
	"scope" text NOT NULL,
	"scope_id" text NOT NULL,
	"window_start" date NOT NULL,
	"used" bigint NOT NULL,
	CONSTRAINT "gift_budget_usage_shop_id_scope_scope_id_window_start_pk" PRIMARY KEY("shop_id","scope","scope_id","window_start")
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "budget" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "over_budget" jsonb;