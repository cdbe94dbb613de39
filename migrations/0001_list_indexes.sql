CREATE INDEX "processes_customer_updated_idx" ON "processes" USING btree ("customer_id","updated_at" DESC NULLS LAST,"numero");--> statement-breakpoint
CREATE INDEX "processes_updated_idx" ON "processes" USING btree ("updated_at" DESC NULLS LAST,"numero");--> statement-breakpoint
CREATE INDEX "processes_customer_shipment_idx" ON "processes" USING btree ("customer_id","shipment_date","numero");--> statement-breakpoint
CREATE INDEX "processes_shipment_idx" ON "processes" USING btree ("shipment_date","numero");--> statement-breakpoint
CREATE INDEX "processes_customer_numero_idx" ON "processes" USING btree ("customer_id","numero");--> statement-breakpoint
CREATE INDEX "processes_customer_status_updated_idx" ON "processes" USING btree ("customer_id","status","updated_at" DESC NULLS LAST,"numero");