"""The managers' insights pages, one module per page; templates under templates/insights/."""
