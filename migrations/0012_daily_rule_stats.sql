CREATE TABLE "daily_rule_stats" (
	"shop_id" text NOT NULL,
	"day" date NOT NULL,
	"rule_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"choices_shown" integer DEFAULT 0 NOT NULL,
	"choices_selected" integer DEFAULT 0 NOT NULL,
	"gifts_added" integer DEFAULT 0 NOT NULL,
	"gifts_removed" integer DEFAULT 0 NOT NULL,
	"orders_with_gifts" integer DEFAULT 0 NOT NULL,
	"gifts_repaired" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_rule_stats_shop_id_day_rule_id_pk" PRIMARY KEY("shop_id","day","rule_id")
);
