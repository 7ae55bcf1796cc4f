entry @hints_ptr_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<i64>, %arg3: tile<i64>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}, sm_90 = {occupancy = 2}> {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = constant <i32: 128> : tile<i32>
  %5 = muli %1, %4 : tile<i32>
  %6 = reshape %5 : tile<i32> -> tile<1xi32>
  %7 = broadcast %6 : tile<1xi32> -> tile<128xi32>
  %8 = iota : tile<128xi32>
  %9 = addi %7, %8 : tile<128xi32>
  %10 = exti %9 signed : tile<128xi32> -> tile<128xi64>
  %11 = constant <i64: 0> : tile<128xi64>
  %12 = cmpi greater_than_or_equal %10, %11, signed : tile<128xi64> -> tile<128xi1>
  %13 = reshape %arg2 : tile<i64> -> tile<1xi64>
  %14 = broadcast %13 : tile<1xi64> -> tile<128xi64>
  %15 = cmpi less_than %10, %14, signed : tile<128xi64> -> tile<128xi1>
  %16 = andi %12, %15 : tile<128xi1>
  assert %16, "kernel `hints_ptr_f32`: `load_ptr_tko`: a lane addresses memory outside argument 0 (Shared) (at pointers.py:384)" : tile<128xi1>
  %17 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %18 = broadcast %17 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %19 = offset %18, %9 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %20, %21 = load_ptr_tko weak %19 token=%0 optimization_hints = <default = {latency = 3}> : tile<128xptr<f32>> -> tile<128xf32>, token
  %22 = reshape %arg3 : tile<i64> -> tile<1xi64>
  %23 = broadcast %22 : tile<1xi64> -> tile<128xi64>
  %24 = cmpi less_than %10, %23, signed : tile<128xi64> -> tile<128xi1>
  %25 = andi %12, %24 : tile<128xi1>
  assert %25, "kernel `hints_ptr_f32`: `store_ptr_tko`: a lane addresses memory outside argument 1 (Shared) (at pointers.py:385)" : tile<128xi1>
  %26 = constant <f32: 2.000000e+00> : tile<128xf32>
  %27 = mulf %20, %26  : tile<128xf32>
  %28 = reshape %arg1 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %29 = broadcast %28 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %30 = offset %29, %9 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %31 = store_ptr_tko weak %30, %27 token=%21 optimization_hints = <default = {latency = 1}> : tile<128xptr<f32>>, tile<128xf32> -> token
  return
}
