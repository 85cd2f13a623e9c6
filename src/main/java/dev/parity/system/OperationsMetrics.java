package dev.parity.system;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.stereotype.Component;

/**
 * Meters that other modules count through Micrometer's global registry (which Spring Boot
 * joins to the application's registries), registered here at start so that
 * {@code /actuator/prometheus} shows them at 0 before the first event:
 * {@code parity_webhook_deliveries_failed_total}, the webhook deliveries given up after
 * their last attempt ({@code history/Webhooks}).
 */
@Component
class OperationsMetrics implements MeterBinder {

	@Override
	public void bindTo(MeterRegistry registry) {
		Counter.builder("parity.webhook.deliveries.failed")
			.description("Webhook deliveries given up after their last attempt (see /api/admin/webhooks/deliveries)")
			.register(registry);
	}

}
