package dev.parity.history;

import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/** Webhook deliveries run on a schedule, apart from any upload. */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class HistoryScheduling {

}
