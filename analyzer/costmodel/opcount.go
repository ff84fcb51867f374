package costmodel

// count adds n steps to the counter the options carry, if any. Options.Ops
// counts the steps Compute takes: servers, listens and addresses visited,
// links followed in a port's address list, names hashed. Like the
// analyzer's operation count it measures the model's work independently
// of the machine, so that the scaling test can hold the cost rules, which
// read the model, to linear growth too.
func (o *Options) count(n int) {
	if o.Ops != nil {
		o.Ops.Add(int64(n))
	}
}
