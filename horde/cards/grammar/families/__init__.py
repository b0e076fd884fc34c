"""The families of the grammar's rules: each module here is a family (draw, damage, tokens, ...)
that defines its effect (or static, trigger, cost) nodes, the rules that read them and their
translations, with the registry's decorators (``horde.cards.grammar.registry``). Every module of
this package is imported when the grammar is first used, in the order of their names: a new
family is a new module, with its tests, and nothing else to edit.
"""
