package dev.parity;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Parity: a dashboard for benchmark provenance.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ParityApplication {

	public static void main(String[] args) {
		SpringApplication.run(ParityApplication.class, args);
	}

}
