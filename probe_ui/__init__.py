"""probe-ui: probe vision-language models on medical images, side by side, with the probing papers' perturbations
and metrics."""

__version__ = "0.1.0"
