CREATE TABLE "order_repairs" (
	"shop_id" text NOT NULL,
	"order_id" text NOT NULL,
	"rule_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"status" text NOT NULL,
	"detail" text,
	"platform_order_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_repairs_shop_id_order_id_rule_id_pk" PRIMARY KEY("shop_id","order_id","rule_id")
);
--> statement-breakpoint
CREATE INDEX "order_repairs_shop_created_idx" ON "order_repairs" USING btree ("shop_id","created_at");