CREATE TABLE "app_subscriptions" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"plan" text,
	"status" text NOT NULL,
	"status_at" timestamp (3) with time zone,
	"current" boolean DEFAULT false NOT NULL,
	"plan_set_at" timestamp (3) with time zone,
	"test" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_subscriptions_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
ALTER TABLE "app_subscriptions" ADD CONSTRAINT "app_subscriptions_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_subscriptions_id_idx" ON "app_subscriptions" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "app_subscriptions_current_idx" ON "app_subscriptions" USING btree ("shop_id") WHERE "app_subscriptions"."current";