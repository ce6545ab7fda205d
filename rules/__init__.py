"""The declarative rules (ASP ``.lp`` and Prolog ``.pl``), shipped inside the package."""
