"""One module per P4Runtime entity kind: each turns updates into switch calls and switch
state back into entities for reads."""
