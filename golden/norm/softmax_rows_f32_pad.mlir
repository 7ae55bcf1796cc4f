entry @softmax_rows_f32_pad(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [128, 100], strides = [100, 1] : tensor_view<128x100xf32, strides=[100,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x128), padding_value = neg_inf, tensor_view<128x100xf32, strides=[100,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x128), padding_value = neg_inf, tensor_view<128x100xf32, strides=[100,1]>>, tile<i32> -> tile<16x128xf32>, token
  %9 = iota : tile<128xi32>
  %10 = reshape %9 : tile<128xi32> -> tile<1x128xi32>
  %11 = constant <i32: 128> : tile<i32>
  %12 = muli %2, %11 : tile<i32>
  %13 = reshape %12 : tile<i32> -> tile<1x1xi32>
  %14 = broadcast %13 : tile<1x1xi32> -> tile<1x128xi32>
  %15 = addi %10, %14 : tile<1x128xi32>
  %16 = constant <i32: 100> : tile<1x128xi32>
  %17 = cmpi less_than %15, %16, signed : tile<1x128xi32> -> tile<1x128xi1>
  %18 = broadcast %17 : tile<1x128xi1> -> tile<16x128xi1>
  %19 = constant <f32: 0xFF800000> : tile<16x128xf32>
  %20 = select %18, %7, %19 : tile<16x128xi1>, tile<16x128xf32>
  %21 = reduce %20 dim=1 identities=[0xFF800000 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%22: tile<f32>, %23: tile<f32>) {
    %24 = maxf %22, %23 : tile<f32>
    yield %24 : tile<f32>
  }
  %25 = reshape %21 : tile<16xf32> -> tile<16x1xf32>
  %26 = broadcast %25 : tile<16x1xf32> -> tile<16x128xf32>
  %27 = subf %20, %26  : tile<16x128xf32>
  %28 = exp %27  : tile<16x128xf32>
  %29 = constant <f32: 0.000000e+00> : tile<16x128xf32>
  %30 = select %18, %28, %29 : tile<16x128xi1>, tile<16x128xf32>
  %31 = reduce %30 dim=1 identities=[0.000000e+00 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%32: tile<f32>, %33: tile<f32>) {
    %34 = addf %32, %33  : tile<f32>
    yield %34 : tile<f32>
  }
  %35 = reshape %31 : tile<16xf32> -> tile<16x1xf32>
  %36 = broadcast %35 : tile<16x1xf32> -> tile<16x128xf32>
  %37 = divf %28, %36  : tile<16x128xf32>
  %38 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %39 = make_tensor_view %38, shape = [128, 100], strides = [100, 1] : tensor_view<128x100xf32, strides=[100,1]>
  %40 = make_partition_view %39 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>
  %41 = store_view_tko weak %37, %40[%1, %2] token = %8 : tile<16x128xf32>, partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>, tile<i32> -> token
  return
}
