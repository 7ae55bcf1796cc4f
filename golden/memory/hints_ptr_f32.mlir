entry @hints_ptr_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}, sm_90 = {occupancy = 2}> {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %5 = broadcast %4 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %6 = constant <i32: 128> : tile<i32>
  %7 = muli %1, %6 : tile<i32>
  %8 = reshape %7 : tile<i32> -> tile<1xi32>
  %9 = broadcast %8 : tile<1xi32> -> tile<128xi32>
  %10 = iota : tile<128xi32>
  %11 = addi %9, %10 : tile<128xi32>
  %12 = offset %5, %11 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %13, %14 = load_ptr_tko weak %12 token=%0 optimization_hints = <default = {latency = 3}> : tile<128xptr<f32>> -> tile<128xf32>, token
  %15 = constant <f32: 2.000000e+00> : tile<128xf32>
  %16 = mulf %13, %15  : tile<128xf32>
  %17 = reshape %arg1 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %18 = broadcast %17 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %19 = offset %18, %11 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %20 = store_ptr_tko weak %19, %16 token=%14 optimization_hints = <default = {latency = 1}> : tile<128xptr<f32>>, tile<128xf32> -> token
  return
}
