package dev.parity.account;

import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * The accounts.
 */
public interface AppUsers extends JpaRepository<AppUser, Long> {

	Optional<AppUser> findByUsername(String username);

}
