"""The review pages, one module per screen family; templates under templates/reviews/."""
