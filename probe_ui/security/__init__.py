"""Who may do what, and what may leave: users and roles, redaction, the outbound policy."""
