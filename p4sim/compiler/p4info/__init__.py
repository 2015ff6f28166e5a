"""P4Info generation: a program's ControlPlaneModel to ``p4.config.v1.P4Info`` whose
names, IDs and aliases equal the ones p4c computes."""
from p4sim.compiler.p4info.builder import build_p4info
from p4sim.compiler.p4info.errors import P4InfoError
from p4sim.compiler.p4info.ids import IdPrefix, compute_ids, jenkins_one_at_a_time
from p4sim.compiler.p4info.writer import write_p4info

__all__ = ["build_p4info", "write_p4info", "P4InfoError", "IdPrefix", "compute_ids",
           "jenkins_one_at_a_time"]
