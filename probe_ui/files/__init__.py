"""Files probe-ui reads and writes: paths it was given, safe writes, CSV, YAML guards, shipped data."""
