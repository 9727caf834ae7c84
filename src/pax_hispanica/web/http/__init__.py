"""What every request goes through: security headers, CSRF and origins, rate limits, how
refusals and failures are answered, and `Site` (the services a route reaches)."""
