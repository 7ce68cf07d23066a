"""What people read: the Results tab's tables, the report, plots, comparisons and failures in words."""
