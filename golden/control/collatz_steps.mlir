entry @collatz_steps(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [32], strides = [1] : tensor_view<32xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(1), padding_value = zero, tensor_view<32xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(1), padding_value = zero, tensor_view<32xi32, strides=[1]>>, tile<i32> -> tile<1xi32>, token
  %9 = reshape %7 : tile<1xi32> -> tile<i32>
  %10 = constant <i32: 0> : tile<i32>
  %11 = loop iter_values(%12 = %9, %13 = %10) : tile<i32>, tile<i32> -> tile<i32> {
    %14 = constant <i32: 1> : tile<i32>
    %15 = cmpi less_than_or_equal %12, %14, signed : tile<i32> -> tile<i1>
    if %15 {
      break %13 : tile<i32>
    } else {
    }
    %16 = constant <i32: 2> : tile<i32>
    %17 = remi %12, %16 signed : tile<i32>
    %18 = cmpi equal %17, %10, signed : tile<i32> -> tile<i1>
    %19 = divi %12, %16 signed rounding<negative_inf> : tile<i32>
    %20 = constant <i32: 3> : tile<i32>
    %21 = muli %12, %20 : tile<i32>
    %22 = addi %21, %14 : tile<i32>
    %23 = select %18, %19, %22 : tile<i1>, tile<i32>
    %24 = addi %13, %14 : tile<i32>
    continue %23, %24 : tile<i32>, tile<i32>
  }
  %25 = reshape %11 : tile<i32> -> tile<1xi32>
  %26 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %27 = make_tensor_view %26, shape = [32], strides = [1] : tensor_view<32xi32, strides=[1]>
  %28 = make_partition_view %27 : partition_view<tile=(1), padding_value = zero, tensor_view<32xi32, strides=[1]>>
  %29 = store_view_tko weak %25, %28[%1] token = %8 : tile<1xi32>, partition_view<tile=(1), padding_value = zero, tensor_view<32xi32, strides=[1]>>, tile<i32> -> token
  return
}
