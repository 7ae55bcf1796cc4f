"""The IR both directions share: the dialect's facts and the Module of ``cuda_tile`` ops.

* :mod:`.dialect` -- ops, opcodes, versions, enums and the op traits (terminators, loops,
  memory ops), each defined once;
* :mod:`.signatures` -- operand groups and attributes of every body op;
* :mod:`.module` -- the Module (ops exactly as the dialect has them), immutable;
* :mod:`.attrmap` -- the immutable attribute map of ops and tiles (a read-only dict);
* :mod:`.numerics` -- bit patterns of scalars and dense constants in every format;
* :mod:`.attr_rules` -- which attribute values each op takes;
* :mod:`.rule_table` -- the one constructor of every interpretation's table of rules.

Nothing here imports the recorder or any stage after it.
"""
