"""The memory's pages, one module per screen family; templates under templates/reflections/."""
