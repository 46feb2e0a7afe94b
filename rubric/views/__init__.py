"""The rubric's pages, one module per screen family; templates under templates/rubric/."""
