"""`p4.tmp`: PI's package of BMv2 device-config messages, installed beside the `p4`
package of `p4runtime` so that scripts written for BMv2's PI build (the p4lang/tutorials
`p4runtime_lib`) import it from a pip-only install."""
